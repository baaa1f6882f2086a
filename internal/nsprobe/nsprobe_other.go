//go:build !linux

package nsprobe

import "testing"

func require(t testing.TB, _ string, _ int) {
	t.Skip("namespaces are Linux only")
}
