package org.vdpactl.packaging;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.cli.Main;

/**
 * The start-up archive is trained on the commands as people run them: the everyday read-only commands on the fake
 * read a state file that exists. Trained on a missing state only, the archive lacked the classes that read and check
 * one (the state's records, the device-name rules, the JDK's Unicode normaliser behind them): some 60 classes that
 * `fake dev list` on a machine where vdpactl ran before then loaded, parsed and verified from the jar at every start
 * (-Xlog:class+load with the build's cache).
 */
class AotTrainingTest {
    @Test
    void theFakesEverydayCommandsAreTrainedOnAStateThatExists() {
        Path state = Path.of("training", "fake-state.json");
        List<String> lines = AotTraining.commandLines(Main.commandLine(), state).stream().map(l -> String.join(" ", l)).toList();
        String fake = "--backend fake --fake-state " + state + " ";
        int firstRead = lines.indexOf(fake + "dev list");
        int firstWrite = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(fake + "dev add ")) {
                firstWrite = i;
                break;
            }
        }
        assertTrue(firstRead >= 0, "no fake dev list in the training: " + lines);
        assertTrue(firstWrite >= 0 && firstWrite < firstRead, "no device added to the training's state before dev list: " + lines);
    }
}
