//go:build !unix

package configs

import "os"

// openFlags opens a file for reading. ReadFile checks the file before opening it.
const openFlags = os.O_RDONLY
