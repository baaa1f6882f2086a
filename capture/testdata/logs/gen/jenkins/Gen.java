// Writes a Jenkins console log with ConsoleNotes encoded as
// hudson.console.ConsoleNote.encodeToBytes does (Jenkins 2.x): the preamble
// ESC[8mha:, then base64 of [int -macLength, mac, int dataLength, data]
// with data the gzipped Java serialization of the note, then ESC[0m.
// The MAC here is 32 fixed bytes (Jenkins signs with its instance secret).
//
//	java gen/jenkins/Gen.java > jenkins-console.log
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.zip.GZIPOutputStream;

public class Gen {
    // Stands in for a ConsoleNote subclass such as HyperlinkNote.
    static class Note implements Serializable {
        private static final long serialVersionUID = 1L;
        String url;
        int length;
        Note(String url, int length) { this.url = url; this.length = length; }
    }

    static byte[] encode(Note n) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (ObjectOutputStream oos = new ObjectOutputStream(new GZIPOutputStream(buf))) {
            oos.writeObject(n);
        }
        ByteArrayOutputStream buf2 = new ByteArrayOutputStream();
        buf2.write("\u001B[8mha:".getBytes(StandardCharsets.UTF_8));
        DataOutputStream dos = new DataOutputStream(Base64.getEncoder().wrap(buf2));
        byte[] mac = new byte[32];
        for (int i = 0; i < mac.length; i++) mac[i] = (byte) (i * 7);
        dos.writeInt(-mac.length);
        dos.write(mac);
        dos.writeInt(buf.size());
        buf.writeTo(dos);
        dos.close();
        buf2.write("\u001B[0m".getBytes(StandardCharsets.UTF_8));
        return buf2.toByteArray();
    }

    public static void main(String[] args) throws IOException {
        OutputStream out = new BufferedOutputStream(System.out);
        String[] lines = {
            "Started by user admin",
            "[Pipeline] node",
            "plain \u001B[1;31mred\u001B[0m",
            "title: \u001B]0;evil-title\u0007|",
            "clip: \u001B]52;c;ZXZpbA==\u0007",
            "concealed by the program: \u001B[8mhidden\u001B[0m|",
            "Finished: SUCCESS",
        };
        for (int i = 0; i < lines.length; i++) {
            if (i == 1 || i == 6) out.write(encode(new Note("/job/demo/" + i, 4)));
            out.write(lines[i].getBytes(StandardCharsets.UTF_8));
            if (i == 2) {
                out.write(" see ".getBytes(StandardCharsets.UTF_8));
                out.write(encode(new Note("https://example.com/log", 4)));
                out.write("here".getBytes(StandardCharsets.UTF_8));
            }
            out.write('\n');
        }
        out.flush();
    }
}
