package no.telenor.id;

/**
 * The natives of the JNI bridge (src/main/c/telenorid_jni*.c), one per C function or close to it.
 *
 * <p>Package-private: the public classes wrap these. Conventions, as in the bridge:
 * <ul>
 *   <li>{@code long} arguments and results are native handles; {@code 0} is never passed in.
 *   <li>{@code byte[]} is a UTF-8 string ({@link Utf8}); {@code null} is a C {@code NULL} both ways.
 *   <li>A failed call throws the {@link TelenoridException} subclass for its status, built by
 *       {@link TelenoridException#fromNative}; an embedded NUL in a string is an
 *       {@link IllegalArgumentException}.
 * </ul>
 *
 * <p>The bridge registers these with {@code RegisterNatives} from its table in {@code JNI_OnLoad}; adding
 * one means a declaration here plus a line in that table ({@code NativeRegistrationTest} checks both agree).
 * Keep this class and {@link TelenoridException#fromNative} from being renamed by R8/ProGuard
 * (android/consumer-rules.pro).
 */
final class Native {
    static {
        load();
    }

    private Native() {
    }

    /** Forces the class (and so the library) to load; throws {@link UnsatisfiedLinkError} when it can't. */
    static void ensureLoaded() {
    }

    private static void load() {
        NativeLoader.load();
        checkCompatible(version(), headerVersion());
        LogSink.install();
    }

    /**
     * The header's rule: the library's major version must equal the one the bridge was compiled against,
     * its minor must be at least that one's.
     */
    static void checkCompatible(int library, int header) {
        int libraryMajor = library >>> 16, libraryMinor = (library >>> 8) & 0xff;
        int headerMajor = header >>> 16, headerMinor = (header >>> 8) & 0xff;
        if (libraryMajor != headerMajor || libraryMinor < headerMinor) {
            throw new UnsatisfiedLinkError("libtelenorid " + Telenorid.formatVersion(library)
                    + " is not compatible with the bridge, which was built against "
                    + Telenorid.formatVersion(header));
        }
    }

    static native int registeredNatives();

    // Versions and status names
    static native int version();
    static native int headerVersion();
    static native byte[] versionString();
    static native byte[] statusName(int status);
    static native boolean statusIsTransient(int status);

    // Configuration
    static native long configBuild(int[] keys, byte[][] values);
    static native long configFromJson(byte[] json, byte[] environment);
    static native byte[] configGet(long config, int key);
    static native void configFree(long config);

    // PKCE
    static native long pkceNew(int length);
    static native long pkceFromVerifier(byte[] verifier);
    static native byte[] pkceVerifier(long pkce);
    static native byte[] pkceChallenge(long pkce);
    static native void pkceFree(long pkce);
    static native byte[][] pkceGenerate(int length);

    // Authorization request
    static native long authRequestNew(long config);
    static native void authRequestSet(long request, int parameter, byte[] value);
    static native void authRequestAddParameter(long request, byte[] name, byte[] value);
    static native void authRequestAddClaim(long request, int target, byte[] name, int essential, byte[] purpose,
            byte[] valueJson, byte[] valuesJson);
    static native void authRequestSetAppToApp(long request, byte[] appCallbackUri);

    static native void authRequestAddResource(long request, byte[] uri);

    static native void authRequestSetAuthorizationDetails(long request, byte[] json);
    static native void authRequestSetTokenAuthorizationDetails(long request, byte[] json);

    static native boolean authRequestApplyStepUp(long request, byte[] wwwAuthenticate);
    static native void authRequestSetPkceMethod(long request, int method);
    static native long authRequestBuild(long request);
    static native void authRequestFree(long request);

    // Pending authorization
    static native byte[] pendingAuthUrl(long pending);
    static native byte[] pendingAuthState(long pending);
    static native byte[] pendingAuthNonce(long pending);
    static native byte[] pendingAuthCodeVerifier(long pending);
    static native byte[] pendingAuthSerialize(long pending);
    static native long pendingAuthRestore(long config, byte[] json);
    static native long pendingAuthHandleCallback(long pending, byte[] redirectUrl);
    static native long pendingAuthHandleAppCallback(long pending, byte[] callbackUrl, byte[] allowedResumeHost);
    static native void pendingAuthFree(long pending);

    // Callbacks
    static native byte[] callbackCode(long callback);
    static native byte[] callbackParameter(long callback, byte[] name);
    static native void callbackFree(long callback);
    static native byte[] appCallbackResumeUri(long appCallback);
    static native void appCallbackFree(long appCallback);

    // Client
    static native long clientNew(long config);
    static native void clientDiscover(long client);
    static native void clientCancel(long client);
    static native long clientConfig(long client);
    static native long clientExchangeCode(long client, long callback);
    static native long clientBuildAuthRequest(long client, long request);
    static native byte[] clientVerifyIdToken(long client, byte[] idToken, byte[] nonce);
    static native void clientFree(long client);

    // Auth state. A change listener is a native handle of its own (0: none), owned by the AuthState.
    static native long authStateRestore(long client, byte[] json);
    static native byte[] authStateFreshAccessToken(long state);
    static native void authStateRefresh(long state);
    static native boolean authStateIsSignedIn(long state);
    static native byte[] authStateGet(long state, int field);
    static native long authStateExpiresAt(long state);
    static native byte[] authStateUserinfo(long state);
    static native void authStateCheck(long state);
    static native void authStateAccessTokenRejected(long state, byte[] accessToken);
    static native void authStateRevoke(long state);
    static native byte[] authStateEndSessionUrl(long state, byte[] postLogoutRedirectUri, byte[] logoutState);
    static native byte[] authStateSerialize(long state);
    static native void authStateBindFile(long state, byte[] path);
    static native long authStateOpenFile(long client, byte[] path);
    // A store: the app's (through StoreCall), or the directory store when `directory` is not null.
    static native void authStateBindStore(long state, StoreCall store, byte[] directory, byte[] key);
    static native long authStateOpenStore(long client, StoreCall store, byte[] directory, byte[] key);
    static native void authStateSave(long state);
    // From inside StoreCall.load only.
    static native int storeRecordSet(long record, byte[] data);
    // Accounts: opened through the app's store (StoreCall) or the directory store when `directory` is not null.
    static native long accountsOpen(long client, StoreCall store, byte[] directory, byte[] name);
    static native byte[] accountsAdd(long accounts, long state);
    static native byte[] accountsList(long accounts);
    static native long accountsSelect(long accounts, byte[] accountId);
    static native void accountsRemove(long accounts, byte[] accountId);
    static native void accountsFree(long accounts);
    static native long authStateSetChangeListener(long state, Runnable listener, long previousListener);
    static native void authStateFree(long state, long listener);

    // Line authentication. A socket hook and a resolver are native handles of their own (0: none), owned by
    // the LineAuthenticator.
    static native long lineAuthNew(long config);
    static native long lineAuthSetSocketHook(long lineAuth, SocketHookCall hook, long previousHook);
    static native long lineAuthSetResolver(long lineAuth, HostResolverCall resolver, long previousResolver);
    static native void lineAuthRun(long lineAuth);
    static native long lineAuthValidFor(long lineAuth);
    static native void lineAuthSetMargin(long lineAuth, long seconds);
    static native void lineAuthApply(long lineAuth, long request);
    static native void lineAuthFree(long lineAuth, long hook, long resolver);

    // The library's log: the sink's native handle (0: none), owned by LogSink.
    static native long setLogSink(LogSink sink, int minLevel, long previousSink);

    // Identity-provider app flow. Pairs are flat: name, value, name, value ... (Bundles).
    static native long idpRequestNew(long pending, byte[] loginHost, byte[] userHint);
    static native byte[] idpRequestUrl(long request, byte[] idpAppUri);
    static native byte[][] idpRequestParams(long request);
    static native long pendingAuthHandleIdpResponseUrl(long pending, byte[] url, byte[][] allowedLoginHosts);
    static native long pendingAuthHandleIdpResponseParams(long pending, byte[][] pairs, byte[][] allowedLoginHosts);
    static native long idpRequestParseUrl(byte[] url, byte[] idpAppUri, byte[][] callerRedirectUris);
    static native long idpRequestParseParams(byte[][] pairs, byte[][] callerRedirectUris);
    static native byte[] idpRequestAuthorizationUrl(long request, byte[] authorizationEndpoint);
    static native long idpRequestRespond(long request, byte[] providerRedirectUrl, byte[] loginHost);
    static native void idpRequestFree(long request);
    static native byte[] idpResponseUrl(long response);
    static native byte[][] idpResponseParams(long response);
    static native void idpResponseFree(long response);
    static native byte[] idpInitiationUrl(byte[] spAppUri, byte[] userHint, byte[] loginHost);
    static native byte[][] idpInitiationParams(byte[] userHint, byte[] loginHost);
    static native byte[][] idpInitiationParseUrl(byte[] url, byte[] spAppUri);
    static native byte[][] idpInitiationParseParams(byte[][] pairs);

    // Loopback redirect listener
    static native long loopbackNew(int port, byte[] path);
    static native byte[] loopbackRedirectUri(long listener);
    static native byte[] loopbackWait(long listener, int timeoutMillis);
    static native void loopbackExpectState(long listener, byte[] state);
    static native void loopbackFree(long listener);
    static native void loopbackCancel(long listener);

    // Device authorization grant (RFC 8628). request 0: none.
    static native long clientStartDeviceAuthorization(long client, long request);
    static native byte[] deviceAuthorizationGet(long authorization, int field);
    static native long deviceAuthorizationExpiresAt(long authorization);
    static native int deviceAuthorizationInterval(long authorization);
    static native long deviceAuthorizationWait(long authorization);
    static native void deviceAuthorizationFree(long authorization);

    // Client-initiated backchannel authentication (OpenID CIBA Core 1.0) and login hints (MODRNA / CAMARA).
    static native long clientStartBackchannelAuthentication(long client, long request);
    static native byte[] backchannelAuthId(long auth);
    static native long backchannelAuthExpiresAt(long auth);
    static native int backchannelAuthInterval(long auth);
    static native void backchannelAuthHandlePing(long auth, byte[] authorization, byte[] body);
    static native long backchannelAuthWait(long auth);
    static native void backchannelAuthFree(long auth);
    static native byte[] loginHintPhoneNumber(byte[] e164);
    static native byte[] loginHintIpPort(byte[] address, int port);
    static native byte[] loginHintOperatorToken(byte[] token);
    static native int loginHintGetForm(byte[] hint);

    // DPoP. A signer is a native handle of its own (0: none), owned by the Client until the native client
    // and its auth states are freed. Request headers are {authorization, dpop}.
    static native long clientSetDPoPSigner(long client, byte[] algorithm, byte[] publicJwk, HostKeySignerCall signer);
    static native long clientSetClientSigner(long client, byte[] algorithm, byte[] publicJwk, HostKeySignerCall signer);
    static native void dpopSignerFree(long signer);
    static native byte[][] authStateRequestHeaders(long state, byte[] method, byte[] url, byte[] resourceNonce);

    static native boolean authStateResourceAnswered(long state, byte[] url, int status, byte[] wwwAuthenticate,
            byte[] dpopNonce, byte[] authorizationSent);
}
