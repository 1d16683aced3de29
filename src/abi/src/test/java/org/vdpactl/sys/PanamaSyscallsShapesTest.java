package org.vdpactl.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.lang.foreign.FunctionDescriptor;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.vdpactl.ffi.gen.libc.libc_h;

/**
 * The seam links its downcall handles on signatures of its own ({@link PanamaSyscalls#SIGNATURES}) so that it
 * does not initialise jextract's holder classes, which would link a second, unused handle per function at every
 * command's start-up. The generated bindings stay the one source of the C signatures: each one here must be the
 * one jextract generated for that function.
 */
class PanamaSyscallsShapesTest {
    @Test
    void everySignatureIsTheGeneratedOne() throws ReflectiveOperationException {
        assertFalse(PanamaSyscalls.SIGNATURES.isEmpty());
        for (Map.Entry<String, FunctionDescriptor> e : PanamaSyscalls.SIGNATURES.entrySet()) {
            FunctionDescriptor generated = (FunctionDescriptor) libc_h.class.getMethod(e.getKey() + "$descriptor").invoke(null);
            assertEquals(generated, e.getValue(), e.getKey());
        }
    }
}
