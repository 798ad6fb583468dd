// expect: Annotated
import java.lang.annotation.*;

@Target(ElementType.TYPE_USE) @interface NonNull {}

@SuppressWarnings("unchecked")
public class Annotated {
    @Deprecated
    @SuppressWarnings({"rawtypes", "main"})
    public static void main(final @NonNull String @NonNull [] args) { System.out.println(1); }
}
