import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** Test driver: each stdin line parsed by the worker's JSON reader and written back by its writer, or "error". */
public final class NpzApiJsonEcho {
    private NpzApiJsonEcho() { }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            try {
                out.append(NpzApiJson.write(NpzApiJson.parse(line)));
            } catch (IllegalArgumentException e) {
                out.append("error");
            }
            out.append('\n');
        }
        System.out.write(out.toString().getBytes(StandardCharsets.UTF_8));
        System.out.flush();
    }
}
