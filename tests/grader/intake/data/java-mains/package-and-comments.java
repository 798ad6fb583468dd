// expect: project.Solver
/* public static void main(String[] args) in a comment: not a main of Decoy */
package /* odd but legal */ project;

import java.util.*;

class Decoy {
    String s = "public static void main(String[] args) {}";
    char c = '"';
    // public static void main(String[] args) {}
}

public class Solver {
    public static void main(String[] args) { new Decoy(); }
}
