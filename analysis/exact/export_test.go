package exact

// SetFastExact turns the smooth-denominator path of the exact optimal sweep (ratOpt) on or off,
// for tests that compare it with the general path, and returns a function that restores it.
func SetFastExact(on bool) (restore func()) {
	old := fastExact.Swap(on)
	return func() { fastExact.Store(old) }
}
