module memsim

go 1.26.8

require (
	github.com/schollz/progressbar/v3 v3.19.1
	go.yaml.in/yaml/v4 v4.0.0
	golang.org/x/term v0.44.0
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	golang.org/x/sys v0.46.0 // indirect
)
