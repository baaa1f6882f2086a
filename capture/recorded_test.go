package capture

// recordedFixtures are captures recorded for this package with the real
// tools (see testdata/rec/README.md).
var recordedFixtures = []fixture{
	{name: "rec-hostile-cast", path: "rec/hostile.cast"},
	{name: "rec-hostile-ttyrec", path: "rec/hostile.tty"},
	{name: "rec-hostile-script-classic", path: "rec/hostile-classic.typescript", timing: "rec/hostile-classic.timing"},
	{name: "rec-hostile-script-adv", path: "rec/hostile-adv.typescript", timing: "rec/hostile-adv.timing"},
	{name: "rec-hostile-pipe", path: "rec/hostile-pipe.raw"},
	{name: "rec-ls-color-cast", path: "rec/ls-color.cast"},
	{name: "rec-git-log-script", path: "rec/git-log.typescript", timing: "rec/git-log.timing"},
	{name: "rec-git-log-ttyrec", path: "rec/git-log.tty"},
}
