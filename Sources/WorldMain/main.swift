import WorldGen
print("world: not built yet")
