import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import no.telenor.id.AuthState;
import no.telenor.id.AuthorizationCallback;
import no.telenor.id.AuthorizationRequest;
import no.telenor.id.Client;
import no.telenor.id.Config;
import no.telenor.id.PendingAuthorization;
import no.telenor.id.Telenorid;

/**
 * A complete sign-in from Java with nothing but the API jar and the natives jar on the class path
 * ({@code java -cp telenorid-<version>.jar:telenorid-<version>-linux-x86_64.jar:. Login ISSUER CLIENT_ID REDIRECT_URI [REVOCATION_ENDPOINT]}):
 * discovery, the authorization URL (printed as {@code open: URL}), the URL the browser ended on read from
 * standard input, the code exchange with the ID token verified, userinfo, a refresh and revocation — the
 * steps of bindings/c/examples/login.c, printed the same way.
 */
public final class Login {
    public static void main(String[] args) throws Exception {
        if (args.length < 3 || args.length > 4) {
            System.err.println("usage: java Login ISSUER CLIENT_ID REDIRECT_URI [REVOCATION_ENDPOINT]");
            System.exit(2);
        }
        Config.Builder builder = Config.builder().issuer(args[0]).clientId(args[1]).redirectUri(args[2])
                .scope("openid profile email");
        if (args.length == 4) {
            builder.revocationEndpoint(args[3]);
        }
        System.out.println("library: " + Telenorid.version());
        try (Config settings = builder.build(); Client client = new Client(settings)) {
            client.discover();
            try (AuthorizationRequest request = new AuthorizationRequest(client.config());
                 PendingAuthorization pending = request.build()) {
                System.out.println("open: " + pending.url());
                System.out.flush();
                String redirect = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                if (redirect == null) {
                    System.err.println("no redirect URL on stdin");
                    System.exit(1);
                }
                try (AuthorizationCallback callback = pending.handleCallback(redirect.trim());
                     AuthState state = client.exchangeCode(callback)) {
                    System.out.println("claims: " + state.idTokenClaims());
                    System.out.println("userinfo: " + state.userinfo());
                    state.refresh();
                    System.out.println("refreshed");
                    state.revoke();
                    if (state.isSignedIn()) {
                        System.err.println("still signed in after revoke");
                        System.exit(1);
                    }
                    System.out.println("revoked");
                }
            }
        }
    }
}
