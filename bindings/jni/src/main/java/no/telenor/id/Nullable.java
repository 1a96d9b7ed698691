package no.telenor.id;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The annotated parameter may be null, or the annotated method may return null: a parameter accepts null
 * with the meaning its documentation gives (usually "not set" or "the default"); a return value is null
 * when its documentation says so (usually "absent").
 *
 * <p>This package's own annotation (with {@link NonNull}), because the binding has no dependencies: it
 * documents the contract in the API and its Javadoc; tools that take custom nullability annotations
 * (Android lint, IntelliJ, NullAway) can be configured to read it.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.PARAMETER, ElementType.FIELD})
public @interface Nullable {
}
