package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The seal of a results.json ties the file to what memsim wrote: ContentHash is the SHA-256 of the
// record's canonical JSON (encoding/json's compact encoding of the Run, ContentHash empty), so that
// any change to a value is seen; ConfigHash identifies the configuration the run was computed
// from, so that a results.json is never read as another configuration's run. The hash is not
// keyed: it catches edits, damage and files that belong to another configuration, not a forger
// who recomputes it (which anybody with this package can).
var (
	// ErrUnsealed marks a Run without a seal: not written by memsim run or memsim merge.
	ErrUnsealed = errors.New("it carries no seal (content_hash): not a file memsim run or memsim merge wrote")
	// ErrChanged marks a Run whose content is not what its seal says: the file was edited or
	// damaged after memsim wrote it.
	ErrChanged = errors.New("changed after memsim wrote it")
	// ErrOtherConfiguration marks a Run computed from another configuration than the one it is
	// read with.
	ErrOtherConfiguration = errors.New("computed from another configuration (its config_hash is not the configuration's)")
)

// SchemaError is a results.json of another schema version than SchemaVersion.
type SchemaError struct {
	// Version is the file's schema version.
	Version int
}

// Error says which version the file has and which this package reads.
func (e *SchemaError) Error() string {
	return fmt.Sprintf("schema version %d, this memsim reads %d (run it again)", e.Version, SchemaVersion)
}

// Seal sets r's seal: ConfigHash to configHash, the hash of the identity of the configuration r
// was computed from, and ContentHash to the SHA-256, in hexadecimal, of r's canonical JSON with
// ContentHash empty. A Run changed afterwards no longer Verifies until it is sealed again. It
// returns an error, leaving ContentHash empty, when r cannot be encoded (a NaN, say).
func Seal(r *Run, configHash string) error {
	r.ConfigHash, r.ContentHash = configHash, ""
	h, err := contentHash(r)
	if err != nil {
		return fmt.Errorf("report: seal: %w", err)
	}
	r.ContentHash = h
	return nil
}

// Verify checks r's seal: that it has one (else ErrUnsealed), that its content is the one sealed
// (else an error wrapping ErrChanged) and that it was computed from the configuration whose
// identity hashes to configHash (else ErrOtherConfiguration), in that order.
func Verify(r *Run, configHash string) error {
	if r.ContentHash == "" {
		return ErrUnsealed
	}
	h, err := contentHash(r)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrChanged, err)
	}
	if h != r.ContentHash {
		return fmt.Errorf("%w: its content does not match its hash", ErrChanged)
	}
	if r.ConfigHash != configHash {
		return ErrOtherConfiguration
	}
	return nil
}

// contentHash returns the SHA-256, in hexadecimal, of r's canonical JSON with ContentHash empty:
// encoding/json's encoding of a struct is deterministic (fields in order, floats in the shortest
// form that reads back to the same float64).
func contentHash(r *Run) (string, error) {
	c := *r
	c.ContentHash = ""
	body, err := json.Marshal(&c)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:]), nil
}

// ReadJSON decodes a results.json strictly: a file of another schema version is refused first, by
// its version (a *SchemaError), then every field must be one of Run's, with nothing after the
// object, and the file must be the one WriteJSON writes for what it holds, whitespace aside (an
// error wrapping ErrChanged otherwise: keys renamed or repeated, numbers respelt). It neither
// verifies the seal (Verify) nor the values (Validate). Errors are one line.
func ReadJSON(data []byte) (*Run, error) {
	var head struct {
		SchemaVersion *int `json:"schema_version"`
	}
	if json.Unmarshal(data, &head) == nil && head.SchemaVersion != nil && *head.SchemaVersion != SchemaVersion {
		return nil, &SchemaError{Version: *head.SchemaVersion}
	}
	var r Run
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("not a valid results file: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("not a valid results file: more data after its object")
	}
	if r.SchemaVersion != SchemaVersion {
		return nil, &SchemaError{Version: r.SchemaVersion}
	}
	canonical, err := encode(&r)
	if err != nil {
		return nil, fmt.Errorf("not a valid results file: %w", err)
	}
	var got, want bytes.Buffer
	if json.Compact(&got, data) != nil || json.Compact(&want, canonical) != nil || !bytes.Equal(got.Bytes(), want.Bytes()) {
		return nil, fmt.Errorf("%w: its JSON is not as memsim writes it", ErrChanged)
	}
	return &r, nil
}

// encode returns r as WriteJSON writes it: indented JSON (two spaces), < > & not escaped, a
// trailing newline.
func encode(r *Run) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
