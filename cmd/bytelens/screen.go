package main

import (
	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/internal/command"
	"github.com/spf13/cobra"
)

func newScreenCmd(s *streams) *cobra.Command {
	sf := &command.Screen{}
	cmd := &cobra.Command{
		Use:   "screen [FILE|-]",
		Short: "Print the terminal screen as a person saw it, as safe text",
		Long: `screen plays a capture through bytelens' terminal screen model (xterm
semantics: main and alternate screens, scroll regions, erase, insert and
delete, DEC special graphics) and prints the screen shown, row by row,
escaped: text drawn concealed (SGR 8) or in invisible colours shows blank.
By default it is the screen at the end; --at OFFSET shows it after the
first OFFSET bytes of the stream (decimal or 0x hex), --frame N after the
N-th frame of a timed recording.

The first line states the model's size and where it came from (the
capture's header, else --size, else 80x24), whether LF was taken as CR LF
(captures of pipes and files, where the tty's ONLCR never ran) or as LF
(pseudo-terminal recordings), the screen shown and the cursor.`,
		Args: cobra.MaximumNArgs(1),
	}
	cf := addCaptureFlags(cmd.Flags())
	command.ScreenSizeFlag(cmd.Flags(), sf)
	cmd.Flags().StringVar(&sf.At, "at", "", "show the screen after this many bytes of the stream (decimal or 0x hex)")
	cmd.Flags().IntVar(&sf.Frame, "frame", 0, "show the screen after this frame (1-based) of a recording")
	policy := addPolicyFlags(cmd.Flags(), "c1", "apc-bel")
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		at, err := sf.Where()
		if err != nil {
			return err
		}
		in, err := cf.openArg(s, args, capture.ArgOptions{Whole: true})
		if err != nil {
			return err
		}
		defer in.Close()
		return s.env().Screens(s.out, in, cf.stream, sf, *policy, at)
	}
	return cmd
}
