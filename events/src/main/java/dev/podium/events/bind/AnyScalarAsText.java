package dev.podium.events.bind;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A record component whose strings (itself, or the elements or values it holds) take any YAML scalar as its text, where
 * the rest of a strict document wants YAML strings: parameters written {@code workers: 2} or {@code fast: true}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD})
public @interface AnyScalarAsText {}
