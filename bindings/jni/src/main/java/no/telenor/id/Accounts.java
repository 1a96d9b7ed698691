package no.telenor.id;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The accounts signed in through one client, kept in a store (the C header's "Accounts"), made by
 * {@link Client#openAccounts}: the registry is the record {@code <name>.accounts} and each account's auth state
 * is bound to the record {@code <name>.<id>}, so every process opening the same registry of the same store sees
 * the same accounts. An account is a user at an issuer (the ID token's {@code iss} and {@code sub}): the same
 * user signing in again replaces theirs. Safe to share between threads. Keeps its client alive.
 */
public final class Accounts extends NativeObject {
    /** An account id in the library's JSON array of them: base64url (RFC 4648 §5), so never escaped. */
    private static final Pattern ID = Pattern.compile("\"([A-Za-z0-9_-]+)\"");

    private final Client client;

    Accounts(long handle, Client client) {
        super(handle, Native::accountsFree);
        this.client = client;
    }

    /**
     * Adds the signed-in {@code state} first in the list, binding it to its account's record; returns the
     * account id (12 characters of base64url).
     *
     * @throws NotSignedInException when {@code state} is signed out
     * @throws InvalidArgumentException when it has no ID token, is of another client, or makes a 101st account
     */
    public @NonNull String add(@NonNull AuthState state) {
        Objects.requireNonNull(state, "state");
        String id = HostCallFailure.attach(() -> call(a -> Utf8.decode(state.call(s -> Native.accountsAdd(a, s)))));
        return id == null ? "" : id;
    }

    /**
     * The accounts as a JSON array, most recently used first, of objects with {@code id}, {@code issuer},
     * {@code subject}, {@code last_used} (Unix seconds) and those of {@code name}, {@code preferred_username},
     * {@code email} the ID token had.
     */
    public @NonNull String listJson() {
        String list = HostCallFailure.attach(() -> call(a -> Utf8.decode(Native.accountsList(a))));
        return list == null ? "[]" : list;
    }

    /**
     * The account's auth state, bound to its record; the account becomes the most recently used.
     *
     * @throws NotSignedInException when {@code accountId} is not in the registry
     */
    public @NonNull AuthState select(@NonNull String accountId) {
        byte[] id = Utf8.encode(Objects.requireNonNull(accountId, "accountId"));
        return HostCallFailure.attach(() -> client.newAuthState(c -> call(a -> Native.accountsSelect(a, id))));
    }

    /**
     * Signs the account out, revokes its grant at the provider (RFC 7009) and drops it. A failed revocation still
     * drops it, then is thrown. Blocks on the network.
     *
     * @throws NotSignedInException when {@code accountId} is not in the registry
     */
    public void remove(@NonNull String accountId) {
        byte[] id = Utf8.encode(Objects.requireNonNull(accountId, "accountId"));
        HostCallFailure.attach(() -> call(a -> {
            Native.accountsRemove(a, id);
            return null;
        }));
    }

    /**
     * Signs out the accounts {@code token} names and drops them from the registry (OpenID Connect Back-Channel
     * Logout 1.0 §2.7), revoking nothing: an account of the token's issuer and subject when the token has no
     * session id; with one, an account whose record holds a sign-in whose ID token has that {@code sid} (and that
     * {@code sub}, when the token has one). Each account's record is signed out first, so an {@link AuthState}
     * bound to it (from {@link #select}, in this process or another) takes the sign-out up when it next reads the
     * record (its next refresh, {@link AuthState#save()}, a revocation), and its change listener runs then; call
     * {@link AuthState#backchannelLogout} on a state you hold to sign it out at once. Returns the ids dropped
     * (empty when none was named). A record that can't be opened leaves its account as it is; its exception is
     * thrown after the others are done. Blocks on the store. Since 0.7.0.
     *
     * @throws StoreFailedException when a record could not be opened or written (the store's exception is the
     *     cause)
     */
    public @NonNull List<String> backchannelLogout(@NonNull LogoutToken token) {
        Objects.requireNonNull(token, "token");
        String dropped = HostCallFailure.attach(
                () -> call(a -> Utf8.decode(token.call(t -> Native.accountsBackchannelLogout(a, t)))));
        return ids(dropped == null ? "[]" : dropped);
    }

    /** The ids in the library's JSON array of account ids, in its order. */
    private static List<String> ids(String array) {
        List<String> ids = new ArrayList<>();
        Matcher id = ID.matcher(array);
        while (id.find()) {
            ids.add(id.group(1));
        }
        return ids;
    }
}
