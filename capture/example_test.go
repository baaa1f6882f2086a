package capture_test

import (
	"context"
	"fmt"
	"log"
	"os/exec"
	"time"

	"github.com/bytelens/bytelens/capture"
)

// An agent tool wraps the command it was asked to run. The model reads the
// cleaned text; the title, colours and clipboard write never reach it, and
// the exit code comes from a field, not from the text.
func ExampleRun() {
	cmd := exec.Command("sh", "-c", `
		printf 'build \033[32mok\033[0m\n'
		printf '\033]0;pwned\007\033]52;c;ZXZpbA==\007warning: 1 file skipped\n' >&2
		exit 3`)
	env, err := capture.Run(context.Background(), cmd, capture.RunOptions{
		Timeout:   10 * time.Second,
		MaxOutput: 16 << 10,
		// Store: s, from store.OpenDefault(), keeps the raw bytes as
		// evidence and sets env.RawArtifact.
	})
	if err != nil {
		log.Fatal(err) // the command could not be started
	}
	fmt.Printf("exit_code: %d\n", env.ExitCode)
	fmt.Printf("stdout: %q\n", env.Stdout)
	fmt.Printf("stderr: %q\n", env.Stderr)
	fmt.Printf("stderr bytes: raw %d, cleaned %d\n", env.Streams.Stderr.BytesRaw, env.Streams.Stderr.BytesCleaned)
	// Output:
	// exit_code: 3
	// stdout: "build ok\n"
	// stderr: "warning: 1 file skipped\n"
	// stderr bytes: raw 50, cleaned 24
}
