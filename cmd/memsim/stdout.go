package main

import (
	"fmt"
	"io"
)

// stdoutWriter is a command's standard output that keeps the first error a write to it met, a
// full disk say, and fails every later write with it: a command prints in many writes and checks
// once, at the end (result), so that no failed write goes unreported.
type stdoutWriter struct {
	w   io.Writer
	err error // the first write that failed
}

// checkedStdout returns w, the command's standard output, as a stdoutWriter.
func checkedStdout(w io.Writer) *stdoutWriter {
	if s, ok := w.(*stdoutWriter); ok {
		return s
	}
	return &stdoutWriter{w: w}
}

// Write writes p to the standard output, unless an earlier write failed. A short write is an
// error (io.ErrShortWrite).
func (s *stdoutWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	s.err = err
	return n, err
}

// result is the outcome of a command that printed to s and ended with err: the failure to write
// to the standard output, if there was one ("writing to stdout: cause"), for it is what an error
// of the command's own printing echoes; err otherwise.
func (s *stdoutWriter) result(err error) error {
	if s.err != nil {
		return fmt.Errorf("writing to stdout: %w", s.err)
	}
	return err
}

// printHelpList prints what memsim help prints (writeHelp) to inv's stdout and returns the exit
// status.
func printHelpList(inv invocation) int {
	out := checkedStdout(inv.stdout)
	writeHelp(out)
	return exitFor("memsim help", out.result(nil), inv.stderr)
}
