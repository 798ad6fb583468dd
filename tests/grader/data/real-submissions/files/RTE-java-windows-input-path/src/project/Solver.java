package project;

import java.io.File;
import java.io.FileNotFoundException;
import java.util.Scanner;

public class Solver {
    public static void main(String[] args) throws FileNotFoundException {
        Scanner in = new Scanner(new File("input\\sample\\input3.txt"));
        int n = in.nextInt();
        System.out.println("read a board of size " + n);
    }
}
