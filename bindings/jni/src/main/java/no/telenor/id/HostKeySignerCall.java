package no.telenor.id;

/**
 * What the bridge calls for each signature by a host-held key (telenorid_jni_dpop.c looks up {@link #sign} by name): runs
 * the app's {@link HostKeySigner} and turns what it throws into a failure, keeping the throwable for the
 * thread that made the request so that {@link HostCallFailure#attach} can make it the cause of the request's
 * exception. Keep from renaming by R8/ProGuard (android/consumer-rules.pro).
 */
final class HostKeySignerCall {
    private final HostKeySigner signer;

    HostKeySignerCall(HostKeySigner signer) {
        this.signer = signer;
    }

    byte[] sign(byte[] signingInput) {
        try {
            return signer.sign(signingInput);
        } catch (Throwable thrown) {
            HostCallFailure.record(thrown);
            return null;
        }
    }
}
