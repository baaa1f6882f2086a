package sanitize

import "strconv"

// PolicyFlag is the command-line flag value of one policy of an
// [Options]: setting it calls [Options.Set] with its key, and its String
// is the policy's current value in Set's spelling. It satisfies
// flag.Value, pflag.Value (Type) and the boolean flag interface of both
// (IsBoolFlag), so flags and key=value settings are parsed by the same
// code, from the same defaults.
type PolicyFlag struct {
	o   *Options
	key string
}

// Flag returns the flag value that sets the policy named key (one of
// PolicyKeys) of o.
func (o *Options) Flag(key string) PolicyFlag { return PolicyFlag{o, key} }

// Set sets the policy from its command-line spelling (see [Options.Set]).
func (f PolicyFlag) Set(value string) error { return f.o.Set(f.key, value) }

// String returns the policy's current value, "lines" for "cr" in a zero
// Options, "4096" for "max-payload".
func (f PolicyFlag) String() string {
	if f.o == nil {
		return ""
	}
	return f.o.Get(f.key)
}

// Type names the value's kind for help texts: "bool" for apc-bel, "int64"
// for max-payload (a byte count), "string" for the named values.
func (f PolicyFlag) Type() string {
	switch f.key {
	case "apc-bel":
		return "bool"
	case "max-payload":
		return "int64"
	}
	return "string"
}

// IsBoolFlag reports whether the flag needs no value (apc-bel).
func (f PolicyFlag) IsBoolFlag() bool { return f.Type() == "bool" }

// Get returns the value of the policy named key in [Options.Set]'s
// spelling, with defaults resolved ("4096" for a zero MaxPayload), or ""
// for an unknown key.
func (o Options) Get(key string) string {
	switch key {
	case "cr":
		return o.CR.String()
	case "bs":
		return o.BS.String()
	case "links":
		return o.Links.String()
	case "format-chars":
		return o.FormatChars.String()
	case "c1":
		return o.C1.String()
	case "apc-bel":
		return strconv.FormatBool(o.APCBEL)
	case "max-payload":
		return strconv.FormatInt(o.maxPayload(), 10)
	}
	return ""
}
