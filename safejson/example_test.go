package safejson_test

import (
	"fmt"
	"os"

	"github.com/bytelens/bytelens/safejson"
)

func ExampleMarshal() {
	b, _ := safejson.Marshal(map[string]string{"text": "ok\u009b31m \u202eevil\u2028"})
	fmt.Println(string(b))
	// Output: {"text":"ok\u009b31m \u202eevil\u2028"}
}

func ExampleEncoder() {
	enc := safejson.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	_ = enc.Encode([]string{"<U+202E>", "\U000E0041"})
	// Output: ["<U+202E>","\udb40\udc41"]
}
