package org.vdpactl.cli;

import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.IAnnotatedElement;
import picocli.CommandLine.Model.IExtensible;
import picocli.CommandLine.Model.IGetter;
import picocli.CommandLine.Model.IScope;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.ITypeInfo;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * A field or setter method of a command object, with the one picocli annotation {@link CommandSpecs} wrote down for
 * it at build time: what picocli's own member wrapper is, less the reading of annotations at run time (see
 * {@link CommandModel}). Each answer is the one picocli 4.7's {@code TypedMember} gives for the same member, so that
 * picocli's builders make the same option, parameter, mixin or spec from it ({@code CommandModelTest} compares them).
 */
final class MemberElement implements IAnnotatedElement, IExtensible, IGetter, ISetter {
    private final Object owner;
    private final Member member;
    private final Annotation annotation;
    private final String name;
    private final ITypeInfo typeInfo;
    /** A field's reader and writer, and its number there; null for a setter method. */
    private final CommandFieldAccess access;
    private final int fieldNumber;
    /** A setter method's last value: picocli's getter of a method member answers with it. */
    private Object lastSet;

    private MemberElement(Object owner, Member member, Annotation annotation, String name, Class<?> type, Type genericType,
            CommandFieldAccess access, int fieldNumber) {
        this.owner = owner;
        this.member = member;
        this.annotation = annotation;
        this.name = name;
        this.typeInfo = typeInfo(type, genericType);
        this.access = access;
        this.fieldNumber = fieldNumber;
    }

    /**
     * The field {@code name} that {@code declaring} (a class of {@code owner}'s) declares, read and written through
     * its package's {@code access} as field {@code number}. The field itself is looked up for its type only.
     */
    static MemberElement field(Object owner, Class<?> declaring, String name, Annotation annotation, CommandFieldAccess access, int number) {
        try {
            Field f = declaring.getDeclaredField(name);
            return new MemberElement(owner, f, annotation, name, f.getType(), f.getGenericType(), access, number);
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException("CommandSpecs is out of date: no field " + name + " in " + declaring.getName(), e);
        }
    }

    /** The one-argument method {@code name} that {@code declaring} declares (an option given by a setter). */
    static MemberElement setter(Object owner, Class<?> declaring, String name, Class<?> parameterType, Annotation annotation) {
        try {
            Method m = declaring.getDeclaredMethod(name, parameterType);
            m.setAccessible(true);
            return new MemberElement(owner, m, annotation, propertyName(name), parameterType, m.getGenericParameterTypes()[0], null, -1);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("CommandSpecs is out of date: no method " + name + " in " + declaring.getName(), e);
        }
    }

    /** picocli's name of a setter's property: {@code setVerbose} is {@code verbose}. */
    private static String propertyName(String methodName) {
        String n = methodName.length() > 3 && (methodName.startsWith("get") || methodName.startsWith("set")) ? methodName.substring(3) : methodName;
        return n.isEmpty() ? n : Character.toLowerCase(n.charAt(0)) + n.substring(1);
    }

    /**
     * picocli's type of the member. Its own maker of a type from a member ({@code RuntimeTypeInfo}) is not public: an
     * argument built from the type and its auxiliary types (those picocli infers from the member's generic type) makes
     * the same one.
     */
    private ITypeInfo typeInfo(Class<?> type, Type genericType) {
        Class<?>[] declared = isOption() ? ((Option) annotation).type() : isParameter() ? ((Parameters) annotation).type() : new Class<?>[0];
        Class<?>[] auxiliary = auxiliaryTypes(type, declared, genericType);
        return isOption() ? OptionSpec.builder("-x").type(type).auxiliaryTypes(auxiliary).build().typeInfo()
                : PositionalParamSpec.builder().type(type).auxiliaryTypes(auxiliary).build().typeInfo();
    }

    /** picocli's {@code RuntimeTypeInfo.inferTypes}: the element types of a multi-value member from its generic type. */
    private static Class<?>[] auxiliaryTypes(Class<?> type, Class<?>[] declared, Type genericType) {
        if (declared.length > 0) {
            return declared;
        }
        if (type.isArray()) {
            return new Class<?>[] {type.getComponentType()};
        }
        if (type != Optional.class && !isMultiValue(type)) {
            return new Class<?>[] {type};
        }
        if (!(genericType instanceof ParameterizedType p)) {
            return new Class<?>[] {String.class, String.class};
        }
        Type[] args = p.getActualTypeArguments();
        Class<?>[] result = new Class<?>[args.length];
        for (int i = 0; i < args.length; i++) {
            Type t = args[i];
            if (t instanceof WildcardType w) {
                t = w.getLowerBounds().length > 0 ? w.getLowerBounds()[0] : w.getUpperBounds()[0];
            } else if (t instanceof ParameterizedType inner) {
                t = inner.getRawType();
            }
            if (!(t instanceof Class<?> c)) {
                throw new CommandLine.InitializationException("unsupported element type of a multi-value member: " + genericType);
            }
            result[i] = c;
        }
        return result;
    }

    @Override
    public Object userObject() {
        return member;
    }

    @Override
    public boolean isAnnotationPresent(Class<? extends Annotation> annotationClass) {
        return annotation.annotationType() == annotationClass;
    }

    @Override
    public <T extends Annotation> T getAnnotation(Class<T> annotationClass) {
        return isAnnotationPresent(annotationClass) ? annotationClass.cast(annotation) : null;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String getMixinName() {
        String given = ((Mixin) annotation).name();
        return given.isEmpty() ? name : given;
    }

    @Override
    public boolean isArgSpec() {
        return isOption() || isParameter();
    }

    @Override
    public boolean isOption() {
        return annotation instanceof Option;
    }

    @Override
    public boolean isParameter() {
        return annotation instanceof Parameters;
    }

    @Override
    public boolean isArgGroup() {
        return false;
    }

    @Override
    public boolean isMixin() {
        return annotation instanceof Mixin;
    }

    @Override
    public boolean isUnmatched() {
        return false;
    }

    @Override
    public boolean isSpec() {
        return annotation instanceof Spec;
    }

    @Override
    public boolean isParentCommand() {
        return false;
    }

    @Override
    public boolean isMultiValue() {
        Class<?> c = typeInfo.getType();
        return c != char[].class && isMultiValue(c);
    }

    /** picocli's multi-value types: arrays, collections and maps. */
    private static boolean isMultiValue(Class<?> c) {
        return c.isArray() || Collection.class.isAssignableFrom(c) || Map.class.isAssignableFrom(c);
    }

    @Override
    public boolean isInteractive() {
        return annotation instanceof Option o ? o.interactive() : annotation instanceof Parameters p && p.interactive();
    }

    /** A field has a value before parsing (read when picocli first asks); a setter has none. */
    @Override
    public boolean hasInitialValue() {
        return member instanceof Field;
    }

    @Override
    public boolean isMethodParameter() {
        return false;
    }

    @Override
    public int getMethodParamPosition() {
        return -1;
    }

    @Override
    public IScope scope() {
        return new OwnerScope(owner);
    }

    /** The object whose member this is: picocli's scope of an annotated member. */
    private record OwnerScope(Object owner) implements IScope {
        @Override
        @SuppressWarnings("unchecked")
        public <T> T get() {
            return (T) owner;
        }

        @Override
        public <T> T set(T value) {
            throw new UnsupportedOperationException("the owner of a command's member is fixed");
        }
    }

    @Override
    public IGetter getter() {
        return this;
    }

    @Override
    public ISetter setter() {
        return this;
    }

    @Override
    public ITypeInfo getTypeInfo() {
        return typeInfo;
    }

    @Override
    public String getToString() {
        String generic = member instanceof Field f ? f.toGenericString() : ((Method) member).toGenericString();
        String shown = generic.replace("private ", "").replace("protected ", "").replace("public ", "").replace("java.lang.", "");
        return isMixin() ? "mixin from member " + shown : (member instanceof Field ? "field " : "method ") + shown;
    }

    @Override
    public String toString() {
        return member.toString();
    }

    /**
     * picocli asks its own member wrapper when to read the initial value: a field's lazily, when first needed
     * (its {@code InitialValueState.POSTPONED}); a setter has none. That enum is not public, hence by name.
     */
    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public <T> T getExtension(Class<T> cls) {
        if (cls.isEnum() && cls.getName().equals("picocli.CommandLine$Model$InitialValueState")) {
            return cls.cast(Enum.valueOf((Class) cls, member instanceof Field ? "POSTPONED" : "UNAVAILABLE"));
        }
        return null;
    }

    // the getter and setter: the member of its owner

    @Override
    @SuppressWarnings("unchecked")
    public <T> T get() {
        if (access == null) {
            return (T) lastSet;
        }
        return (T) access.get(owner, fieldNumber);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T set(T value) {
        T previous = get();
        if (access != null) {
            try {
                access.set(owner, fieldNumber, value);
            } catch (ClassCastException | NullPointerException e) {
                throw new CommandLine.PicocliException("Could not set value for field " + member + " to " + value, e);
            }
            return previous;
        }
        try {
            ((Method) member).invoke(owner, value);
            lastSet = value;
            return previous;
        } catch (InvocationTargetException e) {
            if (e.getTargetException() instanceof CommandLine.PicocliException p) {
                throw p;
            }
            throw new CommandLine.PicocliException("Could not invoke " + member + " with " + value + " (" + e.getTargetException() + ")",
                    e.getTargetException());
        } catch (IllegalAccessException | IllegalArgumentException e) {
            throw new CommandLine.PicocliException("Could not invoke " + member + " with " + value + " (" + e + ")", e);
        }
    }
}
