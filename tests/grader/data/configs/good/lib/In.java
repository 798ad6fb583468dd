// A stand-in library class: only its presence on the classpath matters to the config test.
public class In {}
