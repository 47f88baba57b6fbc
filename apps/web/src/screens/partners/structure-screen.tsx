export const StructureScreen = () => <section data-screen="StructureScreen" />;
