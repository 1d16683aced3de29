package org.vdpactl.cli;

/**
 * Reads and writes the annotated fields of the command and mixin classes of one package, by a number
 * {@link CommandSpecs} gives each: each package's {@code <Package>CommandFields} ({@code MgmtCommandFields}, ...)
 * is generated with the models ({@code CommandSpecsSource}). Plain field access where reflection was: the JDK makes
 * a method-handle accessor for every field on its first reflective read or write (JEP 416), and a command's
 * start-up paid that for each of its options, mixins and specs.
 */
public interface CommandFieldAccess {
    /** The value of field {@code field} of {@code owner}, primitives boxed. */
    Object get(Object owner, int field);

    /**
     * Sets field {@code field} of {@code owner}.
     *
     * @throws ClassCastException if {@code value} is not of the field's type
     * @throws NullPointerException if the field is primitive and {@code value} null
     */
    void set(Object owner, int field, Object value);
}
