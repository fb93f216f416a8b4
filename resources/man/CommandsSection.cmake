# Writes help2man's include file for PROGRAM: the sections of EXTRA and, with COMMANDS on, a COMMANDS
# section holding `PROGRAM COMMAND --help` of every command that `PROGRAM --help` lists.
# Usage: cmake -DPROGRAM=... -DEXTRA=FILE.h2m -DOUT=FILE -DCOMMANDS=ON|OFF -P CommandsSection.cmake

# Text as roff that prints it as it is: backslashes escaped, minus signs as \-, control lines guarded.
function(as_roff text out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

file(READ ${EXTRA} contents)
if(COMMANDS)
  execute_process(COMMAND ${PROGRAM} --help OUTPUT_VARIABLE help RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} --help failed (${status})")
  endif()
  string(REGEX REPLACE ".*\nSubcommands:\n" "" listed "${help}")
  string(REGEX MATCHALL "(^|\n)  [a-z][a-z-]*" names "${listed}")
  get_filename_component(name ${PROGRAM} NAME)
  string(APPEND contents "\n[COMMANDS]\nEach command's own options, as `${name} COMMAND \\-\\-help' prints them.\n")
  foreach(command IN LISTS names)
    string(STRIP "${command}" command)
    execute_process(COMMAND ${PROGRAM} ${command} --help OUTPUT_VARIABLE text RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "${PROGRAM} ${command} --help failed (${status})")
    endif()
    string(REPLACE "${PROGRAM}" "${name}" text "${text}")  # "Usage: iso3dfd run ...", not the build path
    as_roff("${text}" text)
    string(APPEND contents ".SS \"${name} ${command}\"\n.nf\n${text}\n.fi\n")
  endforeach()
endif()
file(WRITE ${OUT} "${contents}")
