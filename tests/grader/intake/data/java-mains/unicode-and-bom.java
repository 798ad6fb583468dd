// expect: Çözücü
public class Çözücü {
    public static void main(String[] args) { String ş = "ğı"; System.out.println(ş); }
}
