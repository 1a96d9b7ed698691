package no.telenor.id;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The annotated parameter must not be null (the method throws {@link NullPointerException} for null), or
 * the annotated method never returns null.
 *
 * <p>This package's own annotation, because the binding has no dependencies; see {@link Nullable}.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.PARAMETER, ElementType.FIELD})
public @interface NonNull {
}
