# Decides whether the Python module (python/) is built: option GENTT_BUILD_PYTHON, ON by default
# when gentt is the top-level project and Python 3 with NumPy and pybind11 are found (a project
# that adds gentt with add_subdirectory() gets it with -DGENTT_BUILD_PYTHON=ON).
#
# Debian's /usr/bin/python3 is the interpreter with python3-numpy; a pyenv or venv python3 that
# comes first on PATH usually has no NumPy, so /usr/bin/python3 is preferred when it exists
# (override with -DPython3_EXECUTABLE=...).
if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "Python interpreter of the gentt module")
endif()

set(_gentt_python_missing "")
find_package(Python3 QUIET COMPONENTS Interpreter Development.Module NumPy)
if(NOT Python3_FOUND)
  set(_gentt_python_missing "Python 3 with development headers and NumPy (python3-dev, python3-numpy)")
else()
  find_package(pybind11 CONFIG QUIET)
  if(NOT pybind11_FOUND)
    set(_gentt_python_missing "pybind11 (Debian: pybind11-dev)")
  endif()
endif()

if(_gentt_python_missing STREQUAL "")
  option(GENTT_BUILD_PYTHON "Build the Python module gentt (python/)" ${PROJECT_IS_TOP_LEVEL})
else()
  option(GENTT_BUILD_PYTHON "Build the Python module gentt (python/)" OFF)
  if(GENTT_BUILD_PYTHON)
    message(FATAL_ERROR "gentt: GENTT_BUILD_PYTHON is ON but ${_gentt_python_missing} was not found")
  endif()
  message(STATUS "gentt: skipping the Python module: ${_gentt_python_missing} not found")
endif()
