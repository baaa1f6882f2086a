package capture

// recordedFixtures are captures recorded for this package with the real
// tools (see testdata/rec/README.md).
var recordedFixtures = []fixture{}
