package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// playerLogsDir is the folder of a run folder that holds the stderr of the players that are
// processes, one file per player.
const playerLogsDir = "logs"

// playerLogs opens the log files of a run's player processes: logs/<player>.log in the run
// folder, appended to, so that a resumed run adds to what the first wrote.
type playerLogs struct {
	dir   string
	files []*os.File
}

// openPlayerLogs returns the player logs of the run folder dir, creating its logs folder.
func openPlayerLogs(dir string) (*playerLogs, error) {
	logs := filepath.Join(dir, playerLogsDir)
	if err := os.MkdirAll(logs, 0o755); err != nil {
		return nil, fmt.Errorf("player logs: %w", err)
	}
	return &playerLogs{dir: logs}, nil
}

// open opens the log of the named player (tournament.Tournament.StartPlayers).
func (l *playerLogs) open(player string) (io.Writer, string, error) {
	path := filepath.Join(l.dir, player+".log")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, "", fmt.Errorf("player %q: log: %w", player, err)
	}
	l.files = append(l.files, f)
	return f, path, nil
}

// close closes the log files.
func (l *playerLogs) close() {
	for _, f := range l.files {
		f.Close()
	}
}
