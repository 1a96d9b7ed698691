package no.telenor.id;

import java.util.Objects;

/**
 * The accounts signed in through one client, kept in a store (the C header's "Accounts"), made by
 * {@link Client#openAccounts}: the registry is the record {@code <name>.accounts} and each account's auth state
 * is bound to the record {@code <name>.<id>}, so every process opening the same registry of the same store sees
 * the same accounts. An account is a user at an issuer (the ID token's {@code iss} and {@code sub}): the same
 * user signing in again replaces theirs. Safe to share between threads. Keeps its client alive.
 */
public final class Accounts extends NativeObject {
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
}
