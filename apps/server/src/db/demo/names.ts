/** Word lists for readable demo data: teachers' names, library names and book titles. */

export const FIRST_NAMES = [
  'Olivia', 'Liam', 'Emma', 'Noah', 'Ava', 'Oliver', 'Sophia', 'Elijah', 'Isabella', 'James', 'Mia', 'William',
  'Amelia', 'Benjamin', 'Harper', 'Lucas', 'Evelyn', 'Henry', 'Abigail', 'Alexander', 'Emily', 'Mason', 'Ella',
  'Michael', 'Elizabeth', 'Ethan', 'Camila', 'Daniel', 'Luna', 'Jacob', 'Sofia', 'Logan', 'Avery', 'Jackson',
  'Mila', 'Levi', 'Aria', 'Sebastian', 'Scarlett', 'Mateo', 'Penelope', 'Jack', 'Layla', 'Owen', 'Chloe',
  'Theodore', 'Victoria', 'Aiden', 'Madison', 'Samuel', 'Eleanor', 'Joseph', 'Grace', 'John', 'Nora', 'David',
  'Riley', 'Wyatt', 'Zoey', 'Matthew', 'Hannah', 'Luke', 'Hazel', 'Asher', 'Lily', 'Carter', 'Ellie', 'Julian',
  'Violet', 'Grayson', 'Lillian', 'Leo', 'Zoe', 'Jayden', 'Stella', 'Gabriel', 'Aurora', 'Isaac', 'Natalie',
  'Lincoln', 'Emilia', 'Anthony', 'Everly', 'Hudson', 'Leah', 'Dylan', 'Aubrey', 'Ezra', 'Willow', 'Thomas',
  'Addison', 'Charles', 'Lucy', 'Christopher', 'Audrey', 'Jaxon', 'Bella', 'Maverick', 'Nova', 'Josiah',
  'Brooklyn', 'Isaiah', 'Paisley', 'Andrew', 'Savannah', 'Elias', 'Claire', 'Joshua', 'Skylar', 'Nathan',
  'Isla', 'Caleb', 'Genesis', 'Ryan', 'Naomi', 'Adrian', 'Elena', 'Miles', 'Caroline', 'Eli', 'Eliana',
  'Nolan', 'Anna', 'Christian', 'Maya', 'Aaron', 'Valentina', 'Cameron', 'Ruby', 'Ezekiel', 'Kennedy',
  'Colton', 'Ivy', 'Luca', 'Ariana', 'Landon', 'Aaliyah', 'Hunter', 'Cora', 'Jonathan', 'Madelyn', 'Santiago',
  'Alice', 'Axel', 'Kinsley', 'Easton', 'Hailey', 'Cooper', 'Gabriella', 'Jeremiah', 'Allison', 'Angel',
  'Gianna', 'Roman', 'Serenity', 'Connor', 'Samantha', 'Jameson', 'Sarah', 'Robert', 'Quinn', 'Greyson',
  'Priya', 'Arjun', 'Mei', 'Wei', 'Yuki', 'Hiro', 'Fatima', 'Omar', 'Aisha', 'Kwame', 'Amara', 'Siobhan',
  'Niamh', 'Cian', 'Ingrid', 'Lars', 'Margaret', 'Patricia', 'Deborah', 'Gregory', 'Douglas', 'Teresa',
] as const;

export const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez',
  'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin',
  'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker',
  'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores', 'Green', 'Adams', 'Nelson',
  'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts', 'Gomez', 'Phillips', 'Evans',
  'Turner', 'Diaz', 'Parker', 'Cruz', 'Edwards', 'Collins', 'Reyes', 'Stewart', 'Morris', 'Morales', 'Murphy',
  'Cook', 'Rogers', 'Gutierrez', 'Ortiz', 'Morgan', 'Cooper', 'Peterson', 'Bailey', 'Reed', 'Kelly', 'Howard',
  'Ramos', 'Kim', 'Cox', 'Ward', 'Richardson', 'Watson', 'Brooks', 'Chavez', 'Wood', 'James', 'Bennett',
  'Gray', 'Mendoza', 'Ruiz', 'Hughes', 'Price', 'Alvarez', 'Castillo', 'Sanders', 'Patel', 'Myers', 'Long',
  'Ross', 'Foster', 'Jimenez', 'Powell', 'Jenkins', 'Perry', 'Russell', 'Sullivan', 'Bell', 'Coleman',
  'Butler', 'Henderson', 'Barnes', 'Gonzales', 'Fisher', 'Vasquez', 'Simmons', 'Romero', 'Jordan',
  'Patterson', 'Alexander', 'Hamilton', 'Graham', 'Reynolds', 'Griffin', 'Wallace', 'Moreno', 'West', 'Cole',
  'Hayes', 'Bryant', 'Herrera', 'Gibson', 'Ellis', 'Tran', 'Medina', 'Aguilar', 'Stevens', 'Murray', 'Ford',
  'Castro', 'Marshall', 'Owens', 'Harrison', 'Fernandez', 'McDonald', 'Woods', 'Washington', 'Kennedy',
  'Wells', 'Vargas', 'Henry', 'Chen', 'Freeman', 'Webb', 'Tucker', 'Guzman', 'Burns', 'Crawford', 'Olson',
  'Simpson', 'Porter', 'Hunter', 'Gordon', 'Mendez', 'Silva', 'Shaw', 'Snyder', 'Mason', 'Dixon', 'Munoz',
  'Hunt', 'Hicks', 'Holmes', 'Palmer', 'Wagner', 'Black', 'Robertson', 'Boyd', 'Rose', 'Stone', 'Salazar',
  'Fox', 'Warren', 'Mills', 'Meyer', 'Rice', 'Schmidt', 'Garza', 'Daniels', 'Ferguson', 'Nichols', 'Stephens',
  "O'Brien", 'Okafor', 'Nakamura', 'Singh', 'Kowalski', 'Novak', 'Lindqvist', 'Haddad', 'Mensah', 'Byrne',
] as const;

export const SUBJECTS = [
  'English', 'Math', 'Science', 'History', 'Geography', 'Art', 'Music', 'Spanish', 'French', 'Biology',
  'Chemistry', 'Physics', 'Social Studies', 'Reading', 'Writing', 'Computer Science', 'Health', 'Drama',
] as const;

export const LIBRARY_KINDS = [
  'Period 1', 'Period 2', 'Period 3', 'Homeroom', 'Book Club', 'Projects', 'Portfolio', 'Writers Workshop',
  'Research', 'Lab Reports', 'Field Trip', 'Summer Reading', 'Grade 3', 'Grade 5', 'Grade 7', 'Grade 9',
  'Grade 11', 'Enrichment', 'Study Hall', 'STEM Club',
] as const;

export const TITLE_OPENINGS = [
  'All About', 'My Year in', 'The Story of', 'Discovering', 'Adventures in', 'A Guide to', 'Exploring',
  'Our Class Book of', 'Questions About', 'The Secret Life of', 'Ten Facts About', 'Journey Through',
] as const;

export const TITLE_TOPICS = [
  'Volcanoes', 'the Solar System', 'Ancient Egypt', 'Fractions', 'Butterflies', 'the Water Cycle',
  'Our Town', 'Dinosaurs', 'Rainforests', 'the Roman Empire', 'Photosynthesis', 'Poetry', 'Ocean Animals',
  'Electricity', 'the Civil Rights Movement', 'Healthy Eating', 'Recycling', 'Maps and Compasses',
  'Shakespeare', 'Weather', 'Insects', 'Simple Machines', 'Friendship', 'Our Families', 'Planets',
  'the Human Heart', 'Earthquakes', 'Migration', 'Geometry', 'Inventors',
] as const;
