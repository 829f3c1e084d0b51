package demo;

import org.apache.commons.lang3.StringUtils;

public class Strings {
    public static String shout(String s) {
        return StringUtils.upperCase(s);
    }
}
