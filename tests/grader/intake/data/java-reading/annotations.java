// uses: Override Deprecated SuppressWarnings Checked java Board
// not-uses: Stack Queue
// declared: Annotated Checked Action
// qualified: java.lang.FunctionalInterface
// errors: no
@Deprecated
@SuppressWarnings({"Stack", "unchecked"})
public class Annotated {
    @Override
    public String toString() { return "Queue"; }

    @java.lang.FunctionalInterface
    interface Action { void run(@Checked(level = 2) Board b); }
}

@interface Checked {
    int level() default 1;
}
