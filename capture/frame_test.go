package capture

import (
	"testing"
	"time"
)

func TestFrameEndTime(t *testing.T) {
	st := &Stream{Events: []Event{
		{Kind: EventFrame, Off: 0, Len: 4, Time: 100 * time.Millisecond},
		{Kind: EventResize, Off: 4},
		{Kind: EventFrame, Off: 4, Len: 3, Time: 2 * time.Second},
	}}
	for _, tt := range []struct {
		n    int
		end  int64
		ok   bool
		time time.Duration
	}{{1, 4, true, 100 * time.Millisecond}, {2, 7, true, 2 * time.Second}, {3, 0, false, 0}, {0, 0, false, 0}} {
		end, ok := FrameEnd(st, tt.n)
		if end != tt.end || ok != tt.ok || FrameTime(st, tt.n) != tt.time {
			t.Errorf("frame %d: FrameEnd %d %v, FrameTime %v; want %d %v %v", tt.n, end, ok, FrameTime(st, tt.n), tt.end, tt.ok, tt.time)
		}
	}
}
