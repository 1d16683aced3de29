/**
 * Simulated hosts and what runs on them: {@link org.vdpactl.sim.SimulatedHost} (a private fake
 * kernel with N mlx5-like devices), the upstream configurations of the mlx5 model and their
 * model-level runs ({@link org.vdpactl.sim.UpstreamScenarios}), the same configurations rehearsed
 * through the orchestrator on two presets ({@link org.vdpactl.sim.PresetComparison}), and the
 * orchestration benchmark ({@link org.vdpactl.sim.OrchestrationBench}). Every figure here is
 * simulated; the CLI renders these results and owns no simulation of its own.
 */
package org.vdpactl.sim;
