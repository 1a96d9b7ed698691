package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import org.junit.jupiter.api.Test;

/**
 * The bridge registers its natives from a table (RegisterNatives): a table entry without a Java
 * declaration fails the load, and this test catches the other way round, a declaration without an entry
 * (which would only fail with UnsatisfiedLinkError on first call).
 */
class NativeRegistrationTest {
    @Test
    void everyDeclaredNativeIsRegistered() {
        int declared = 0;
        for (Method method : Native.class.getDeclaredMethods()) {
            if (Modifier.isNative(method.getModifiers())) {
                declared++;
            }
        }
        assertEquals(declared, Native.registeredNatives());
    }
}
