# Persona library models live here.
