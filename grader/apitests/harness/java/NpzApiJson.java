import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON the Java API worker speaks with the judge (one object a line): objects as Maps, arrays as
 * Lists, integers as Long, other numbers as Double, strings, booleans, null. Written here because the worker
 * runs with the JDK alone beside a student's classes.
 */
final class NpzApiJson {
    private final String text;
    private int at;

    private NpzApiJson(String text) {
        this.text = text;
    }

    /** The value of one JSON text; IllegalArgumentException when it is not JSON. */
    static Object parse(String text) {
        NpzApiJson reader = new NpzApiJson(text);
        Object value = reader.value(0);
        reader.blank();
        if (reader.at != text.length()) {
            throw new IllegalArgumentException("trailing characters at " + reader.at);
        }
        return value;
    }

    private void blank() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    private char peek() {
        blank();
        if (at >= text.length()) {
            throw new IllegalArgumentException("the text ended early");
        }
        return text.charAt(at);
    }

    private Object value(int depth) {
        if (depth > 64) {
            throw new IllegalArgumentException("nested too deep");
        }
        char c = peek();
        if (c == '{') {
            return object(depth);
        }
        if (c == '[') {
            return array(depth);
        }
        if (c == '"') {
            return string();
        }
        for (String word : new String[] {"true", "false", "null"}) {
            if (text.startsWith(word, at)) {
                at += word.length();
                return word.equals("null") ? null : Boolean.valueOf(word.equals("true"));
            }
        }
        return number();
    }

    private Map<String, Object> object(int depth) {
        Map<String, Object> map = new LinkedHashMap<>();
        at++;
        if (peek() == '}') {
            at++;
            return map;
        }
        while (true) {
            if (peek() != '"') {
                throw new IllegalArgumentException("a key must be a string at " + at);
            }
            String key = string();
            if (peek() != ':') {
                throw new IllegalArgumentException("':' expected at " + at);
            }
            at++;
            map.put(key, value(depth + 1));
            char next = peek();
            at++;
            if (next == '}') {
                return map;
            }
            if (next != ',') {
                throw new IllegalArgumentException("',' or '}' expected at " + (at - 1));
            }
        }
    }

    private List<Object> array(int depth) {
        List<Object> list = new ArrayList<>();
        at++;
        if (peek() == ']') {
            at++;
            return list;
        }
        while (true) {
            list.add(value(depth + 1));
            char next = peek();
            at++;
            if (next == ']') {
                return list;
            }
            if (next != ',') {
                throw new IllegalArgumentException("',' or ']' expected at " + (at - 1));
            }
        }
    }

    private String string() {
        StringBuilder b = new StringBuilder();
        at++;
        while (true) {
            if (at >= text.length()) {
                throw new IllegalArgumentException("a string did not end");
            }
            char c = text.charAt(at++);
            if (c == '"') {
                return b.toString();
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = text.charAt(at++);
            switch (e) {
                case 'n': b.append('\n'); break;
                case 't': b.append('\t'); break;
                case 'r': b.append('\r'); break;
                case 'b': b.append('\b'); break;
                case 'f': b.append('\f'); break;
                case 'u': b.append((char) Integer.parseInt(text.substring(at, at + 4), 16)); at += 4; break;
                default: b.append(e); break;
            }
        }
    }

    private Object number() {
        int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        String word = text.substring(start, at);
        if (word.isEmpty()) {
            throw new IllegalArgumentException("a value expected at " + start);
        }
        boolean integer = true;
        for (int i = word.startsWith("-") ? 1 : 0; i < word.length() && integer; i++) {
            integer = Character.isDigit(word.charAt(i));
        }
        return integer && !word.equals("-") ? (Object) Long.valueOf(word) : (Object) Double.valueOf(word);
    }

    /** The JSON text of a value built from Maps, Lists, strings, numbers, booleans and null (ASCII only). */
    static String write(Object value) {
        StringBuilder b = new StringBuilder();
        write(value, b);
        return b.toString();
    }

    private static void write(Object value, StringBuilder b) {
        if (value == null || value instanceof Boolean || value instanceof Long || value instanceof Integer) {
            b.append(value);
        } else if (value instanceof Double && Double.isFinite((Double) value)) {
            b.append(value);
        } else if (value instanceof String) {
            quote((String) value, b);
        } else if (value instanceof Map) {
            b.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                b.append(first ? "" : ", ");
                first = false;
                quote(String.valueOf(e.getKey()), b);
                b.append(": ");
                write(e.getValue(), b);
            }
            b.append('}');
        } else if (value instanceof List) {
            b.append('[');
            boolean first = true;
            for (Object item : (List<?>) value) {
                b.append(first ? "" : ", ");
                first = false;
                write(item, b);
            }
            b.append(']');
        } else if (value instanceof int[]) {
            List<Object> items = new ArrayList<>();
            for (int v : (int[]) value) {
                items.add((long) v);
            }
            write(items, b);
        } else {
            throw new IllegalStateException("no JSON for a " + value.getClass().getName() + " (a worker bug)");
        }
    }

    private static void quote(String s, StringBuilder b) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c == '\n') {
                b.append("\\n");
            } else if (c < 0x20 || c > 0x7e) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        b.append('"');
    }
}
