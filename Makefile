# memsim: make run runs the main job on the embedded default; make test runs vet and the race-enabled tests
# (make test-long: the long cases, which CI also runs).
GO ?= go
BIN := bin/memsim

.PHONY: all build run test test-long browser-check terminal-check python-test screenshots fmt-check vet bench apidiff clean

all: build

# The first build says what it does, which takes a minute or more: downloading the Go modules
# (when the module cache lacks one: go list finds out without the network) and building bin/memsim
# (when there is none yet). Later builds print nothing.
build:
	@if ! GOPROXY=off $(GO) list -deps ./cmd/memsim >/dev/null 2>&1; then \
		echo "memsim: downloading Go modules (first build only)…"; \
		$(GO) mod download || exit 1; \
	fi
	@if [ ! -e $(BIN) ]; then echo "memsim: building $(BIN)…"; fi
	@$(GO) build -buildvcs=auto -o $(BIN) ./cmd/memsim

# The main job: the embedded default tournament (configs/default.yaml); results go to results/default/.
run: build
	./$(BIN) run --force

# make test (the README's test command; its time is in docs/testing.md): every package's tests,
# long randomised and exhaustive cases in their short form, and the Python client's tests. make
# test-long runs them all in full, without the race detector; CI runs both. The browser test of
# the HTML pages needs Chromium, the Python players need python3 and the terminal tests of memsim
# play a pseudo-terminal; each is skipped, and says so, without them.
#
# The race detector checks memory shared between goroutines, so the packages whose code and tests
# start none (RACE_FREE_PACKAGES; TestRaceFreePackagesStartNoGoroutines in cmd/memsim keeps the
# list true, naming any go statement that enters them) run without it, beside the others: the
# exact solver's arithmetic runs many times slower under it and would gain nothing. So do the
# tests of the packages whose code starts no goroutine and whose tests play one game at a time on
# their own goroutine (ONE_GOROUTINE_PACKAGES: the players, whose tests build exact tables and
# play them game by game), their examples, which play a Match on the engine's worker pool, then
# running with it (-run '^Example'; TestOneGoroutinePackagesPlayNoPool in cmd/memsim keeps the
# list true: no go statement and no import of os/exec, net/http or os/signal in their code or
# tests, and sim.Match named only in their examples). Every other package runs with it. The packages whose tests take longest start first, so that the others
# fill the second CPU beside them (go test runs them in the order given, two at a time):
# tournament, whose tests run one after another, beside cmd/memsim, whose tests run in parallel.
# A race-enabled process sleeps a second on exit by default, for reports of other threads to be
# printed; a race is reported when it is detected, and a test that meets one fails, so the tests
# do not wait: every test binary and every memsim or player process the tests start would add
# its second (GORACE given to make comes after, and wins). The Python client's tests run beside
# them too, their output printed when they end.
SLOW_TEST_PACKAGES := ./tournament ./cmd/memsim

# The tests allocate many short-lived values (the exact solver's rationals above all), so the
# garbage collector runs less often for them: a heap may grow to five times what is live before a
# collection (GOGC=400), which takes about a quarter off the exact solver's CPU time, unless it
# nears 2 GiB (GOMEMLIMIT). Values given in the environment win.
test test-long: export GOGC ?= 400
test test-long: export GOMEMLIMIT ?= 2GiB
RACE_FREE_PACKAGES := ./analysis/exact ./analysis/exact/answer ./analysis/field ./analysis/stats ./analysis/report ./analysis/mdhtml ./analysis/audit ./sim/rules ./configs/internal/yamlnode
ONE_GOROUTINE_PACKAGES := ./strategies
test: fmt-check vet browser-check terminal-check
	@python_log=$$(mktemp); $(PYTHON_TEST) >$$python_log 2>&1 & python=$$!; \
	race_packages="$$($(GO) list ./... | sed 's|^memsim|.|' | grep -vxF $(foreach p,$(RACE_FREE_PACKAGES) $(ONE_GOROUTINE_PACKAGES),-e $(p)))"; \
	echo "$(GO) test -short -count=1 -timeout 30m $(RACE_FREE_PACKAGES) $(ONE_GOROUTINE_PACKAGES) && GORACE=\"atexit_sleep_ms=0 $(GORACE)\" $(GO) test -race -short -count=1 -timeout 30m -run '^Example' $(ONE_GOROUTINE_PACKAGES) &"; \
	{ $(GO) test -short -count=1 -timeout 30m $(RACE_FREE_PACKAGES) $(ONE_GOROUTINE_PACKAGES) && \
		GORACE="atexit_sleep_ms=0 $(GORACE)" $(GO) test -race -short -count=1 -timeout 30m -run '^Example' $(ONE_GOROUTINE_PACKAGES); } & free=$$!; \
	echo "GORACE=\"atexit_sleep_ms=0 $(GORACE)\" $(GO) test -race -short -count=1 -timeout 30m $(SLOW_TEST_PACKAGES) "$$race_packages; \
	GORACE="atexit_sleep_ms=0 $(GORACE)" $(GO) test -race -short -count=1 -timeout 30m $(SLOW_TEST_PACKAGES) $$race_packages; raced=$$?; \
	wait $$free; freed=$$?; wait $$python; pythoned=$$?; \
	echo "python3 -m unittest discover -s clients/python -p 'test_*.py' &"; cat $$python_log; rm -f $$python_log; \
	[ $$raced -eq 0 ] && [ $$freed -eq 0 ] && [ $$pythoned -eq 0 ]

browser-check:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
		echo "browser tests skipped: no chromium on PATH to open report.html, audit.html and memsim serve's page in (apt-get install chromium)"

# memsim play is tested on a pseudo-terminal, which needs /dev/ptmx.
terminal-check:
	@test -c /dev/ptmx || \
		echo "terminal tests skipped: no /dev/ptmx to open a pseudo-terminal for memsim play on"

# The Python client of the player protocol and its example players (clients/python).
PYTHON_TEST := if command -v python3 >/dev/null 2>&1; then \
		python3 -m unittest discover -s clients/python -p 'test_*.py'; \
	else \
		echo "Python player tests skipped: no python3 on PATH (apt-get install python3)"; \
	fi
python-test:
	@$(PYTHON_TEST)

# Full-page screenshots of report.html, audit.html and memsim serve's page in docs/screenshots
# (needs Chromium).
screenshots:
	$(GO) test -count=1 -short -run 'TestPagesReadWellInABrowser|TestServePageInABrowser' ./cmd/memsim -args -screenshots

test-long:
	$(GO) test -count=1 -timeout 60m ./...

fmt-check:
	@out=$$(gofmt -l $$(find . -name '*.go' -not -path './bin/*')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# Speed figures quoted in the README (medians of 5 runs on a shared 2-core machine).
bench:
	$(GO) test -run '^$$' -bench . -count 5 ./analysis/... ./sim/...

# The exported API that strategy authors and library users build on, guarded with
# golang.org/x/exp/apidiff: lists every incompatible change of these packages since the git
# revision BASE (default HEAD: the uncommitted change; make apidiff BASE=<tag> before a release)
# and fails if there is one.
API_PACKAGES := sim sim/rules strategies tournament tournament/rundir
BASE ?= HEAD
apidiff:
	@set -e; tmp=$$(mktemp -d); \
	trap 'git worktree remove --force "$$tmp/base" >/dev/null 2>&1 || true; rm -rf "$$tmp"' EXIT; \
	$(GO) build -o "$$tmp/apidiff" golang.org/x/exp/cmd/apidiff; \
	git worktree add --detach --quiet "$$tmp/base" $(BASE); \
	fail=0; for p in $(API_PACKAGES); do \
		f="$$tmp/$$(echo $$p | tr / _).export"; \
		if ! (cd "$$tmp/base" && "$$tmp/apidiff" -w "$$f" memsim/$$p 2>/dev/null); then echo "memsim/$$p: new since $(BASE)"; continue; fi; \
		out=$$("$$tmp/apidiff" -incompatible "$$f" memsim/$$p); \
		if [ -n "$$out" ]; then echo "memsim/$$p: incompatible changes since $(BASE):"; echo "$$out"; fail=1; fi; \
	done; \
	if [ $$fail = 0 ]; then echo "apidiff: no incompatible change of $(API_PACKAGES) since $(BASE)"; fi; exit $$fail

clean:
	rm -rf bin
