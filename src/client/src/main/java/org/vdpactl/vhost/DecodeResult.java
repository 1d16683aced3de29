package org.vdpactl.vhost;

import java.util.Optional;
import java.util.function.Function;

/**
 * The outcome of decoding untrusted bytes: a value or a typed {@link ConfigParseError}. Decoders
 * never throw for bad input.
 *
 * @param <T> the decoded type
 */
public sealed interface DecodeResult<T> permits DecodeResult.Ok, DecodeResult.Failed {

    /** A decoded value. */
    record Ok<T>(T value) implements DecodeResult<T> {
    }

    /** Bytes that do not decode. */
    record Failed<T>(ConfigParseError error) implements DecodeResult<T> {
    }

    static <T> DecodeResult<T> ok(T value) {
        return new Ok<>(value);
    }

    static <T> DecodeResult<T> failed(ConfigParseError error) {
        return new Failed<>(error);
    }

    default boolean isOk() {
        return this instanceof Ok;
    }

    default Optional<T> toOptional() {
        return this instanceof Ok<T> ok ? Optional.of(ok.value()) : Optional.empty();
    }

    default Optional<ConfigParseError> failure() {
        return this instanceof Failed<T> f ? Optional.of(f.error()) : Optional.empty();
    }

    default <U> DecodeResult<U> map(Function<? super T, ? extends U> f) {
        return switch (this) {
            case Ok<T> ok -> new Ok<>(f.apply(ok.value()));
            case Failed<T> failed -> new Failed<>(failed.error());
        };
    }

    /** The value, or a {@link ConfigParseException}. */
    default T orElseThrow() {
        return switch (this) {
            case Ok<T> ok -> ok.value();
            case Failed<T> failed -> throw new ConfigParseException(failed.error());
        };
    }
}
