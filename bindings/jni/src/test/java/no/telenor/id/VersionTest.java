package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class VersionTest {
    @Test
    void versionStringAndNumberAgree() {
        Telenorid.load();
        // The header the bridge was compiled against (TELENORID_VERSION_NUMBER) is the one source.
        assertEquals(Telenorid.formatVersion(Telenorid.headerVersionNumber()), Telenorid.version());
        assertEquals(Telenorid.headerVersionNumber(), Telenorid.versionNumber());
        assertEquals(Telenorid.version(), Telenorid.formatVersion(Telenorid.versionNumber()));
    }

    @Test
    void statusNamesComeFromTheLibrary() {
        assertEquals("ok", Telenorid.statusName(0));
        assertEquals("state mismatch", Telenorid.statusName(8));
        assertEquals("authorization error", Telenorid.statusName(11));
        assertEquals("unknown status", Telenorid.statusName(9999));
        assertEquals("unknown status", Telenorid.statusName(-1));
    }

    @Test
    void statusEnumMatchesTheHeader() {
        for (Status status : Status.values()) {
            if (status != Status.UNKNOWN) {
                assertEquals(status, Status.of(status.code()));
                assertEquals(status.code(), status.ordinal(), "codes are dense and in order: " + status);
            }
        }
        assertEquals(Status.TEMPORARILY_UNAVAILABLE, Status.of(25));
        assertEquals(Status.CANCELLED, Status.of(28));
        assertEquals(Status.ROTATION_POSSIBLY_LOST, Status.of(31));
        assertEquals(Status.UNKNOWN, Status.of(32));
        assertEquals(Status.UNKNOWN, Status.of(-5));
    }

    @Test
    void compatibilityRule() {
        Native.checkCompatible(0x000100, 0x000100);
        Native.checkCompatible(0x000205, 0x000100); // newer minor is fine
        assertThrows(UnsatisfiedLinkError.class, () -> Native.checkCompatible(0x000000, 0x000100)); // older minor
        assertThrows(UnsatisfiedLinkError.class, () -> Native.checkCompatible(0x010100, 0x000100)); // other major
    }
}
