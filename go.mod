module memsim

go 1.26.8
