import StoreSimulator
print("store-simulator: not built yet")
