// Package nsprobe is a test helper: it finds out, without the code under
// test, whether the machine lets a user make the namespaces that
// capture.RunOptions.Isolate needs (user, PID and mount namespaces,
// user_namespaces(7), pid_namespaces(7), mount_namespaces(7)) and mount a
// procfs in them, so that an isolation test skips where the machine
// forbids them and fails where Isolate itself is broken.
//
// Only test binaries import it. Importing it makes a binary started as
// [Arg0] run the probe and exit; [Require] starts the test binary so.
package nsprobe

import "testing"

const (
	// Arg0 is the argv[0] (or the base name of the executable) that
	// makes a binary importing the package run the probe.
	Arg0 = "bytelens-nsprobe"
	// Env says which step to run: "outer" (Command sets it) or "inner".
	Env = "BYTELENS_TEST_NSPROBE"
	// TestNS is the environment variable with the test's PID and mount
	// namespaces, "PID MNT" as /proc/self/ns/{pid,mnt} name them
	// ([Namespaces]): the inner probe checks that its own differ.
	TestNS = "TESTNS"
	// Broken is the probe's exit status when it did not get namespaces
	// of its own: the probe is wrong, not the machine.
	Broken = 3
)

// Require skips t unless the probe, started from exe (a test binary that
// imports the package, runnable by uid) as the user uid, could make the
// namespaces and mount a procfs in them; it fails t if the probe itself
// is broken. A test that goes on may treat an isolation error of the code
// under test as a failure. The probe runs once per uid.
func Require(t testing.TB, exe string, uid int) {
	t.Helper()
	require(t, exe, uid)
}
