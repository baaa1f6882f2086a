# Writes journal entries in the journal export format, the input of
# systemd-journal-remote. The samples are journalctl's own output from the
# journal file that systemd-journal-remote (systemd 252) writes from it:
#
#   python3 gen/journald/entries.py > /tmp/in.export
#   /lib/systemd/systemd-journal-remote -o /tmp/payload.journal - < /tmp/in.export
#   journalctl --file /tmp/payload.journal -o json > journald.json
#   journalctl --file /tmp/payload.journal -o export > journald.export
import struct, sys

def field(k, v):
    if b"\n" in v or any(c < 32 or c >= 127 for c in v):
        return k + b"\n" + struct.pack("<Q", len(v)) + v + b"\n"
    return k + b"=" + v + b"\n"

msgs = [
    [b"plain text line"],
    [b"plain \x1b[1;31mred\x1b[0m and \x1b]52;c;ZXZpbA==\x07clip"],
    [b"badutf8: \xff\xfe|cut: \xe2\x82|"],
    [b"two\nlines", b"second value"],  # MESSAGE twice in one entry
    [b"title: \x1b]0;evil-title\x07|"],
    [b"big:" + b"x" * 5000],  # over 4096 bytes: null in -o json without --all
]
out = b""
for i, values in enumerate(msgs):
    out += field(b"__REALTIME_TIMESTAMP", str(1795952867100444 + i * 100000).encode())
    out += field(b"__MONOTONIC_TIMESTAMP", str(1000 * (i + 1)).encode())
    out += field(b"_BOOT_ID", b"6b1b4b9cde8d4c2fa1a2f0c3d4e5f601")
    out += field(b"PRIORITY", b"6")
    out += field(b"SYSLOG_IDENTIFIER", b"payload")
    for v in values:
        out += field(b"MESSAGE", v)
    out += b"\n"
sys.stdout.buffer.write(out)
