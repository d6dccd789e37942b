// A Go program that runs another program: `true`, with its output and
// status passed on (go-program.test builds it without cgo: statically
// linked).
package main

import (
	"os"
	"os/exec"
)

func main() {
	cmd := exec.Command("true")
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		os.Exit(1)
	}
	os.Stdout.WriteString("ran true\n")
}
