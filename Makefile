# memsim: make run runs the main job on the embedded default; make test runs vet and the race-enabled tests.
GO ?= go
BIN := bin/memsim

.PHONY: all build run test fmt-check vet bench clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/memsim

# The main job: the embedded default tournament (configs/default.yaml); results go to results/default/.
run: build
	./$(BIN) run --force

test: fmt-check vet
	$(GO) test -race -count=1 ./...

fmt-check:
	@out=$$(gofmt -l $$(find . -name '*.go' -not -path './bin/*')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# Speed figures quoted in the README (medians of 5 runs on a shared 2-core machine).
bench:
	$(GO) test -run '^$$' -bench . -count 5 ./analysis/... ./sim/...

clean:
	rm -rf bin
