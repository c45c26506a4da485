//go:build unix

package configs

import (
	"os"
	"syscall"
)

// openFlags opens a file for reading without waiting: a named pipe put in the place of the file
// after it was checked opens at once, and is then refused as one.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK
