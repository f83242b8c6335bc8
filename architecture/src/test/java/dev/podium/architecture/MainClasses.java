package dev.podium.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The main classes of every module, read from its target/classes (the reactor builds them before this module). */
final class MainClasses {

    private MainClasses() {}

    static JavaClasses read() {
        ClassFileImporter importer =
                new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS);
        List<Path> dirs = Layering.MODULES.stream()
                .map(m -> Path.of("..", m, "target", "classes"))
                .filter(Files::isDirectory)
                .toList();
        assertThat(dirs).as("compiled modules").hasSize(Layering.MODULES.size());
        return importer.importPaths(dirs);
    }
}
