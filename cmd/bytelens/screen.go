package main

import (
	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/internal/command"
	"github.com/spf13/cobra"
)

func newScreenCmd(s *streams) *cobra.Command {
	sf := &command.Screen{}
	cmd := withHelp("screen", &cobra.Command{
		Use:  "screen [FILE|-]",
		Args: cobra.MaximumNArgs(1),
	})
	cf := command.CaptureFlags(cmd.Flags(), s.stdin, keys.OpenStore)
	command.ScreenSizeFlag(cmd.Flags(), sf)
	cmd.Flags().StringVar(&sf.At, "at", "", "show the screen after this many bytes of the stream (decimal or 0x hex)")
	cmd.Flags().IntVar(&sf.Frame, "frame", 0, "show the screen after this frame (1-based) of a recording")
	policy := addPolicyFlags(cmd.Flags(), "c1", "apc-bel")
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		at, err := sf.Where()
		if err != nil {
			return err
		}
		in, err := cf.OpenArg(args, capture.ArgOptions{Whole: true})
		if err != nil {
			return err
		}
		defer in.Close()
		return s.env().Screens(s.out, in, cf.Stream, sf, *policy, at)
	}
	return cmd
}
