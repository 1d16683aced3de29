/**
 * The fake kernel's inside as vdpactl's own modules reach it ({@link org.vdpactl.fake.inside.FakeInside}). Not API:
 * exported only to vdpactl's own modules.
 */
package org.vdpactl.fake.inside;
