import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.security.kerberos.KerberosName;
import org.apache.kafka.common.security.kerberos.KerberosShortNamer;

/**
 * Kafka 4.4's own principal-to-local mapping, for fjord's rules to be compared with
 * (crates/kerberos/tests/rules_against_kafka.rs): each line of the file given is a case,
 * "default realm TAB principal TAB rules" (the rules separated by U+001F); each output line
 * is "OK short-name" or "ERR" and the exception's class.
 */
public class ShortNames {
    public static void main(String[] args) throws Exception {
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String[] f = line.split("\t", -1);
            String out;
            try {
                List<String> rules = Arrays.asList(f[2].split("\u001f", -1));
                KerberosShortNamer namer = KerberosShortNamer.fromUnparsedRules(f[0], rules);
                out = "OK " + namer.shortName(KerberosName.parse(f[1]));
            } catch (Exception e) {
                out = "ERR " + e.getClass().getSimpleName();
            }
            System.out.println(out);
        }
    }
}
