import org.apache.paimon.rest.RESTCatalogServer;
import org.apache.paimon.rest.auth.AuthProvider;
import org.apache.paimon.rest.auth.BearTokenAuthProvider;
import org.apache.paimon.rest.auth.DLFAuthProvider;
import org.apache.paimon.rest.auth.DLFDefaultSigner;
import org.apache.paimon.rest.auth.DLFOpenApiSigner;
import org.apache.paimon.rest.auth.DLFToken;
import org.apache.paimon.rest.auth.RESTAuthParameter;
import org.apache.paimon.rest.responses.ConfigResponse;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Starts Java Paimon's own REST catalog test server (org.apache.paimon.rest.RESTCatalogServer from
 * the paimon-core 1.4.2 test jar, on okhttp's MockWebServer) on 127.0.0.1 for paimon-go's REST
 * catalog tests, and signs fixed requests with Java's DLF signers.
 *
 * <pre>
 * serve &lt;dataPath&gt; &lt;warehouse&gt; &lt;auth&gt; [key=value...]
 *     auth: bear:&lt;token&gt; | dlf:&lt;region&gt;:&lt;akId&gt;:&lt;akSecret&gt;[:&lt;securityToken&gt;]
 *     key=value: extra config defaults (prefix=..., data-token.enabled=true, ...)
 *   Prints "url=&lt;server url&gt;" on stdout, then reads commands from stdin, one a line, answering
 *   "ok" to each: "fail-next-commit" makes the next successful commit answer 500 (the server's
 *   commitSuccessThrowException switch); "fail-pending" answers "ok true" while that is to come. The server stops at end of input.
 * sign &lt;default|openapi&gt; &lt;region&gt; &lt;akId&gt; &lt;akSecret&gt; &lt;securityToken|-&gt; &lt;epochMillis&gt;
 *      &lt;method&gt; &lt;path&gt; &lt;query k=v&amp;...|-&gt; &lt;body|-&gt; [nonce]
 *   Prints the signed headers, one "name: value" a line, sorted (the authorization included).
 * </pre>
 */
public class RestCatalogServerMain {

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
        int code = 0;
        try {
            switch (args.length > 0 ? args[0] : "") {
                case "serve":
                    serve(args, out);
                    break;
                case "sign":
                    sign(args, out);
                    break;
                default:
                    throw new IllegalArgumentException("usage: RestCatalogServerMain serve|sign ...");
            }
        } catch (Throwable t) {
            t.printStackTrace(System.err);
            code = 1;
        }
        out.flush();
        Runtime.getRuntime().halt(code);
    }

    private static void serve(String[] args, PrintStream out) throws Exception {
        if (args.length < 4) {
            throw new IllegalArgumentException("serve <dataPath> <warehouse> <auth> [key=value...]");
        }
        String dataPath = args[1];
        String warehouse = args[2];
        AuthProvider auth = authProvider(args[3]);
        Map<String, String> defaults = new HashMap<>();
        defaults.put("prefix", "paimon");
        defaults.put("warehouse", warehouse);
        for (int i = 4; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            defaults.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        RESTCatalogServer server =
                new RESTCatalogServer(dataPath, auth, new ConfigResponse(defaults, new HashMap<>()), warehouse);
        server.start();
        out.println("url=" + server.getUrl());
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            switch (line.trim()) {
                case "fail-next-commit":
                    RESTCatalogServer.commitSuccessThrowException = true;
                    break;
                case "fail-pending":
                    out.println("ok " + RESTCatalogServer.commitSuccessThrowException);
                    out.flush();
                    continue;
                case "":
                    continue;
                default:
                    System.err.println("unknown command: " + line);
            }
            out.println("ok");
            out.flush();
        }
        server.shutdown();
    }

    private static AuthProvider authProvider(String spec) {
        String[] p = spec.split(":", -1);
        switch (p[0]) {
            case "bear":
                return new BearTokenAuthProvider(spec.substring("bear:".length()));
            case "dlf":
                return new VerifyingDLF(
                        new DLFToken(p[2], p[3], p.length > 4 && !p[4].isEmpty() ? p[4] : null, null), p[1]);
            default:
                throw new IllegalArgumentException("unknown auth " + p[0]);
        }
    }

    /**
     * The server side of DLF signing, as Java's own MockRESTCatalogTest.TestDLFAuthProvider does:
     * the expected authorization is recomputed from the sign headers the request carries (its
     * x-dlf-date among them), so a request signed in the previous second still verifies.
     */
    private static final class VerifyingDLF extends DLFAuthProvider {
        private final DLFDefaultSigner signer;

        VerifyingDLF(DLFToken token, String region) {
            super(null, token, "http://127.0.0.1", region, DLFDefaultSigner.IDENTIFIER);
            this.signer = new DLFDefaultSigner(region);
        }

        @Override
        public Map<String, String> mergeAuthHeader(Map<String, String> base, RESTAuthParameter parameter) {
            try {
                Map<String, String> headers = new HashMap<>(base);
                headers.put(DLF_AUTHORIZATION_HEADER_KEY, signer.authorization(parameter, token, "", base));
                return headers;
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }
    }

    private static void sign(String[] args, PrintStream out) throws Exception {
        if (args.length < 11) {
            throw new IllegalArgumentException(
                    "sign <algo> <region> <akId> <akSecret> <sts|-> <epochMillis> <method> <path> <query|-> <body|-> [nonce]");
        }
        String algo = args[1];
        String region = args[2];
        DLFToken token = new DLFToken(args[3], args[4], "-".equals(args[5]) ? null : args[5], null);
        Instant now = Instant.ofEpochMilli(Long.parseLong(args[6]));
        Map<String, String> query = new HashMap<>();
        if (!"-".equals(args[9])) {
            for (String kv : args[9].split("&")) {
                int eq = kv.indexOf('=');
                query.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
        }
        String body = "-".equals(args[10]) ? "" : args[10];
        RESTAuthParameter parameter = new RESTAuthParameter(args[8], query, args[7], body);
        String host = "dlfnext.cn-hangzhou.aliyuncs.com";
        Map<String, String> headers;
        String authorization;
        if (DLFOpenApiSigner.IDENTIFIER.equals(algo)) {
            DLFOpenApiSigner signer = new DLFOpenApiSigner();
            headers = signer.signHeaders(body, now, token.getSecurityToken(), host);
            if (args.length > 11) {
                headers.put("x-acs-signature-nonce", args[11]);
            }
            authorization = signer.authorization(parameter, token, host, headers);
        } else {
            DLFDefaultSigner signer = new DLFDefaultSigner(region);
            headers = signer.signHeaders(body, now, token.getSecurityToken(), host);
            authorization = signer.authorization(parameter, token, host, headers);
        }
        Map<String, String> sorted = new TreeMap<>(headers);
        sorted.put("Authorization", authorization);
        for (Map.Entry<String, String> e : sorted.entrySet()) {
            out.println(e.getKey() + ": " + e.getValue());
        }
    }
}
